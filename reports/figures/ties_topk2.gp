# ties_topk2.gp: gnuplot 5.4 script written by samplab report.
# In this directory, `gnuplot ties_topk2.gp` remakes ties_topk2.png and ties_topk2.svg from ties_topk2.dat.
if (!exists("outstem")) outstem = "ties_topk2"
set encoding utf8
set title "top-k = 2 on softmax([3, 2, 2, 1]): who keeps the tie" noenhanced
set xlabel "token id" noenhanced
set ylabel "draws out of 10,000" noenhanced
set grid back lc rgb '#dddddd'
set key top right box opaque noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set yrange [0:*]
unset grid
set grid ytics
set terminal pngcairo size 1000,620 font 'DejaVu Sans,13' linewidth 1.5
set output outstem.'.png'
cols = "#9400d3 #009e73 #56b4e9 #e69f00 #0072b2 #d55e00 #cc79a7 #000000 #8c564b #bcbd22 #7f7f7f #17becf #f0e442 #e51e10"
plot for [i=2:10] 'ties_topk2.dat' using i:xtic(sprintf('token %d', int(column(1)))) lc rgb word(cols, (i-2)%14+1) title columnheader(i)
unset output
set terminal svg size 1000,620 font 'DejaVu Sans,13' linewidth 1.5 background '#ffffff'
set output outstem.'.svg'
cols = "#9400d3 #009e73 #56b4e9 #e69f00 #0072b2 #d55e00 #cc79a7 #000000 #8c564b #bcbd22 #7f7f7f #17becf #f0e442 #e51e10"
plot for [i=2:10] 'ties_topk2.dat' using i:xtic(sprintf('token %d', int(column(1)))) lc rgb word(cols, (i-2)%14+1) title columnheader(i)
unset output
