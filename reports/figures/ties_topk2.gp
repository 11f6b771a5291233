# ties_topk2.gp: gnuplot 5.4 script written by samplab report.
# In this directory, `gnuplot ties_topk2.gp` remakes ties_topk2.png and ties_topk2.svg from ties_topk2.dat.
if (!exists("outstem")) outstem = "ties_topk2"
set encoding utf8
set title "top-k = 2 on softmax([3, 2, 2, 1]): who keeps the tie" noenhanced
set xlabel "token id" noenhanced
set ylabel "draws out of 10,000" noenhanced
set grid back lc rgb '#dddddd'
set key top right box opaque noenhanced
set yrange [0:*]
unset grid
set grid ytics
set xtics nomirror scale 0
set terminal pngcairo size 1000,680 font 'DejaVu Sans,13' linewidth 1.5
set output outstem.'.png'
set boxwidth 0.16 absolute
set xrange [-0.5:2.5]
plot 'ties_topk2.dat'  using 0:(NaN):xtic(1) with points notitle, \
     'ties_topk2.dat'  using ($0-0.32):2 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#d55e00' title "hf", \
     'ties_topk2.dat'  using ($0-0.32):2 with boxes fs transparent pattern 4 noborder lc rgb '#ffffff' notitle, \
     'ties_topk2.dat'  using ($0-0.16):3 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#009e73' title "candle", \
     'ties_topk2.dat'  using ($0-0.16):3 with boxes fs transparent pattern 7 noborder lc rgb '#ffffff' notitle, \
     'ties_topk2.dat'  using ($0+0):4 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#0072b2' title "llamacpp", \
     'ties_topk2.dat'  using ($0+0.16):5 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#cc79a7' title "vllm", \
     'ties_topk2.dat'  using ($0+0.16):5 with boxes fs transparent pattern 5 noborder lc rgb '#ffffff' notitle, \
     'ties_topk2.dat'  using ($0+0.32):6 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#999999' title "tutorial", \
     'ties_topk2.dat'  using ($0+0.32):6 with boxes fs transparent pattern 1 noborder lc rgb '#ffffff' notitle, \
     'ties_topk2.dat' using ($0+0):7 with points pt 7 ps 1.8 lc rgb '#000000' title "dot: drawn (10,000 draws)", \
     'ties_topk2.dat' using ($0-0.32):8 with points pt 7 ps 1.8 lc rgb '#000000' notitle, \
     'ties_topk2.dat' using ($0+0.16):9 with points pt 7 ps 1.8 lc rgb '#000000' notitle, \
     'ties_topk2.dat' using ($0-0.16):10 with points pt 7 ps 1.8 lc rgb '#000000' notitle
unset output
set terminal svg size 1000,680 font 'DejaVu Sans,13' linewidth 1.5 background '#ffffff'
set output outstem.'.svg'
set boxwidth 0.16 absolute
set xrange [-0.5:2.5]
plot 'ties_topk2.dat'  using 0:(NaN):xtic(1) with points notitle, \
     'ties_topk2.dat'  using ($0-0.32):2 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#d55e00' title "hf", \
     'ties_topk2.dat'  using ($0-0.32):2 with boxes fs transparent pattern 4 noborder lc rgb '#ffffff' notitle, \
     'ties_topk2.dat'  using ($0-0.16):3 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#009e73' title "candle", \
     'ties_topk2.dat'  using ($0-0.16):3 with boxes fs transparent pattern 7 noborder lc rgb '#ffffff' notitle, \
     'ties_topk2.dat'  using ($0+0):4 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#0072b2' title "llamacpp", \
     'ties_topk2.dat'  using ($0+0.16):5 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#cc79a7' title "vllm", \
     'ties_topk2.dat'  using ($0+0.16):5 with boxes fs transparent pattern 5 noborder lc rgb '#ffffff' notitle, \
     'ties_topk2.dat'  using ($0+0.32):6 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#999999' title "tutorial", \
     'ties_topk2.dat'  using ($0+0.32):6 with boxes fs transparent pattern 1 noborder lc rgb '#ffffff' notitle, \
     'ties_topk2.dat' using ($0+0):7 with points pt 7 ps 1.8 lc rgb '#000000' title "dot: drawn (10,000 draws)", \
     'ties_topk2.dat' using ($0-0.32):8 with points pt 7 ps 1.8 lc rgb '#000000' notitle, \
     'ties_topk2.dat' using ($0+0.16):9 with points pt 7 ps 1.8 lc rgb '#000000' notitle, \
     'ties_topk2.dat' using ($0-0.16):10 with points pt 7 ps 1.8 lc rgb '#000000' notitle
unset output
