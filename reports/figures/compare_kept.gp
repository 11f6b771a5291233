# compare_kept.gp: gnuplot 5.4 script written by samplab report.
# In this directory, `gnuplot compare_kept.gp` remakes compare_kept.png and compare_kept.svg from compare_kept.dat.
if (!exists("outstem")) outstem = "compare_kept"
set encoding utf8
set title "Same logits, same settings: tokens each framework keeps" noenhanced
set xlabel "case" noenhanced
set ylabel "tokens kept" noenhanced
set grid back lc rgb '#dddddd'
set key top left box opaque noenhanced
set terminal pngcairo size 1400,620 font 'DejaVu Sans,13' linewidth 1.5
set output outstem.'.png'
set datafile missing '-'
unset title
unset xlabel
set xtics nomirror scale 0
set bmargin 6
set multiplot layout 1,3 title "Same logits, same settings: how many tokens each framework keeps" noenhanced
set logscale y
set format y '10^{%L}'
set yrange [1:100000]
set ylabel "tokens kept (log scale)"
set key at screen 0.5,0.015 center bottom horizontal maxrows 1 box
set boxwidth 0.16 absolute
set xrange [-0.5:0.5]
plot 'compare_kept.dat' index 0 using 0:(NaN):xtic(1) with points notitle, \
     'compare_kept.dat' index 0 using ($0-0.32):2 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#d55e00' title "hf", \
     'compare_kept.dat' index 0 using ($0-0.32):2 with boxes fs transparent pattern 4 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 0 using ($0-0.32):2:(sprintf('%d', int(column(2)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 0 using ($0-0.16):3 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#009e73' title "candle", \
     'compare_kept.dat' index 0 using ($0-0.16):3 with boxes fs transparent pattern 7 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 0 using ($0-0.16):3:(sprintf('%d', int(column(3)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 0 using ($0+0):4 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#0072b2' title "llamacpp", \
     'compare_kept.dat' index 0 using ($0+0):4:(sprintf('%d', int(column(4)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 0 using ($0+0.16):5 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#cc79a7' title "vllm", \
     'compare_kept.dat' index 0 using ($0+0.16):5 with boxes fs transparent pattern 5 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 0 using ($0+0.16):5:(sprintf('%d', int(column(5)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 0 using ($0+0.32):6 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#999999' title "tutorial", \
     'compare_kept.dat' index 0 using ($0+0.32):6 with boxes fs transparent pattern 1 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 0 using ($0+0.32):6:(sprintf('%d', int(column(6)))) with labels offset 0,0.6 font ',10' notitle
unset logscale y
set format y '%g'
set yrange [0:39]
set ytics 0,10
set ylabel "tokens kept"
unset key
set boxwidth 0.16 absolute
set xrange [-0.5:0.5]
plot 'compare_kept.dat' index 1 using 0:(NaN):xtic(1) with points notitle, \
     'compare_kept.dat' index 1 using ($0-0.32):2 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#d55e00' title "hf", \
     'compare_kept.dat' index 1 using ($0-0.32):2 with boxes fs transparent pattern 4 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 1 using ($0-0.32):2:(sprintf('%d', int(column(2)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 1 using ($0-0.16):3 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#009e73' title "candle", \
     'compare_kept.dat' index 1 using ($0-0.16):3 with boxes fs transparent pattern 7 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 1 using ($0-0.16):3:(sprintf('%d', int(column(3)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 1 using ($0+0):4 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#0072b2' title "llamacpp", \
     'compare_kept.dat' index 1 using ($0+0):4:(sprintf('%d', int(column(4)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 1 using ($0+0.16):5 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#cc79a7' title "vllm", \
     'compare_kept.dat' index 1 using ($0+0.16):5 with boxes fs transparent pattern 5 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 1 using ($0+0.16):5:(sprintf('%d', int(column(5)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 1 using ($0+0.32):6 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#999999' title "tutorial", \
     'compare_kept.dat' index 1 using ($0+0.32):6 with boxes fs transparent pattern 1 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 1 using ($0+0.32):6:(sprintf('%d', int(column(6)))) with labels offset 0,0.6 font ',10' notitle
unset logscale y
set format y '%g'
set yrange [0:4]
set ytics 0,1
set ylabel "tokens kept"
unset key
set boxwidth 0.16 absolute
set xrange [-0.5:0.5]
plot 'compare_kept.dat' index 2 using 0:(NaN):xtic(1) with points notitle, \
     'compare_kept.dat' index 2 using ($0-0.32):2 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#d55e00' title "hf", \
     'compare_kept.dat' index 2 using ($0-0.32):2 with boxes fs transparent pattern 4 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 2 using ($0-0.32):2:(sprintf('%d', int(column(2)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 2 using ($0-0.16):3 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#009e73' title "candle", \
     'compare_kept.dat' index 2 using ($0-0.16):3 with boxes fs transparent pattern 7 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 2 using ($0-0.16):3:(sprintf('%d', int(column(3)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 2 using ($0+0):4 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#0072b2' title "llamacpp", \
     'compare_kept.dat' index 2 using ($0+0):4:(sprintf('%d', int(column(4)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 2 using ($0+0.16):5 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#cc79a7' title "vllm", \
     'compare_kept.dat' index 2 using ($0+0.16):5 with boxes fs transparent pattern 5 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 2 using ($0+0.16):5:(sprintf('%d', int(column(5)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 2 using ($0+0.32):6 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#999999' title "tutorial", \
     'compare_kept.dat' index 2 using ($0+0.32):6 with boxes fs transparent pattern 1 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 2 using ($0+0.32):6:(sprintf('%d', int(column(6)))) with labels offset 0,0.6 font ',10' notitle
unset multiplot
unset output
set terminal svg size 1400,620 font 'DejaVu Sans,13' linewidth 1.5 background '#ffffff'
set output outstem.'.svg'
set datafile missing '-'
unset title
unset xlabel
set xtics nomirror scale 0
set bmargin 6
set multiplot layout 1,3 title "Same logits, same settings: how many tokens each framework keeps" noenhanced
set logscale y
set format y '10^{%L}'
set yrange [1:100000]
set ylabel "tokens kept (log scale)"
set key at screen 0.5,0.015 center bottom horizontal maxrows 1 box
set boxwidth 0.16 absolute
set xrange [-0.5:0.5]
plot 'compare_kept.dat' index 0 using 0:(NaN):xtic(1) with points notitle, \
     'compare_kept.dat' index 0 using ($0-0.32):2 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#d55e00' title "hf", \
     'compare_kept.dat' index 0 using ($0-0.32):2 with boxes fs transparent pattern 4 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 0 using ($0-0.32):2:(sprintf('%d', int(column(2)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 0 using ($0-0.16):3 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#009e73' title "candle", \
     'compare_kept.dat' index 0 using ($0-0.16):3 with boxes fs transparent pattern 7 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 0 using ($0-0.16):3:(sprintf('%d', int(column(3)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 0 using ($0+0):4 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#0072b2' title "llamacpp", \
     'compare_kept.dat' index 0 using ($0+0):4:(sprintf('%d', int(column(4)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 0 using ($0+0.16):5 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#cc79a7' title "vllm", \
     'compare_kept.dat' index 0 using ($0+0.16):5 with boxes fs transparent pattern 5 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 0 using ($0+0.16):5:(sprintf('%d', int(column(5)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 0 using ($0+0.32):6 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#999999' title "tutorial", \
     'compare_kept.dat' index 0 using ($0+0.32):6 with boxes fs transparent pattern 1 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 0 using ($0+0.32):6:(sprintf('%d', int(column(6)))) with labels offset 0,0.6 font ',10' notitle
unset logscale y
set format y '%g'
set yrange [0:39]
set ytics 0,10
set ylabel "tokens kept"
unset key
set boxwidth 0.16 absolute
set xrange [-0.5:0.5]
plot 'compare_kept.dat' index 1 using 0:(NaN):xtic(1) with points notitle, \
     'compare_kept.dat' index 1 using ($0-0.32):2 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#d55e00' title "hf", \
     'compare_kept.dat' index 1 using ($0-0.32):2 with boxes fs transparent pattern 4 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 1 using ($0-0.32):2:(sprintf('%d', int(column(2)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 1 using ($0-0.16):3 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#009e73' title "candle", \
     'compare_kept.dat' index 1 using ($0-0.16):3 with boxes fs transparent pattern 7 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 1 using ($0-0.16):3:(sprintf('%d', int(column(3)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 1 using ($0+0):4 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#0072b2' title "llamacpp", \
     'compare_kept.dat' index 1 using ($0+0):4:(sprintf('%d', int(column(4)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 1 using ($0+0.16):5 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#cc79a7' title "vllm", \
     'compare_kept.dat' index 1 using ($0+0.16):5 with boxes fs transparent pattern 5 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 1 using ($0+0.16):5:(sprintf('%d', int(column(5)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 1 using ($0+0.32):6 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#999999' title "tutorial", \
     'compare_kept.dat' index 1 using ($0+0.32):6 with boxes fs transparent pattern 1 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 1 using ($0+0.32):6:(sprintf('%d', int(column(6)))) with labels offset 0,0.6 font ',10' notitle
unset logscale y
set format y '%g'
set yrange [0:4]
set ytics 0,1
set ylabel "tokens kept"
unset key
set boxwidth 0.16 absolute
set xrange [-0.5:0.5]
plot 'compare_kept.dat' index 2 using 0:(NaN):xtic(1) with points notitle, \
     'compare_kept.dat' index 2 using ($0-0.32):2 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#d55e00' title "hf", \
     'compare_kept.dat' index 2 using ($0-0.32):2 with boxes fs transparent pattern 4 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 2 using ($0-0.32):2:(sprintf('%d', int(column(2)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 2 using ($0-0.16):3 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#009e73' title "candle", \
     'compare_kept.dat' index 2 using ($0-0.16):3 with boxes fs transparent pattern 7 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 2 using ($0-0.16):3:(sprintf('%d', int(column(3)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 2 using ($0+0):4 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#0072b2' title "llamacpp", \
     'compare_kept.dat' index 2 using ($0+0):4:(sprintf('%d', int(column(4)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 2 using ($0+0.16):5 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#cc79a7' title "vllm", \
     'compare_kept.dat' index 2 using ($0+0.16):5 with boxes fs transparent pattern 5 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 2 using ($0+0.16):5:(sprintf('%d', int(column(5)))) with labels offset 0,0.6 font ',10' notitle, \
     'compare_kept.dat' index 2 using ($0+0.32):6 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#999999' title "tutorial", \
     'compare_kept.dat' index 2 using ($0+0.32):6 with boxes fs transparent pattern 1 noborder lc rgb '#ffffff' notitle, \
     'compare_kept.dat' index 2 using ($0+0.32):6:(sprintf('%d', int(column(6)))) with labels offset 0,0.6 font ',10' notitle
unset multiplot
unset output
